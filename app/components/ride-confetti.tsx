// Confetti for 3 seconds when a booking is accepted: pure CSS, and nothing at all for
// people who prefer reduced motion.
const COLORS = ["#047857", "#f59e0b", "#2563eb", "#db2777", "#10b981", "#7c3aed"];

export function Confetti() {
  return (
    <div
      aria-hidden="true"
      className="lr-confetti pointer-events-none fixed inset-0 z-40 overflow-hidden"
      data-testid="confetti"
    >
      <style>{`
        .lr-confetti { animation: lr-confetti-hide 3s linear forwards; }
        .lr-confetti i { position: absolute; top: -2rem; width: 0.6rem; height: 1rem; border-radius: 2px; animation: lr-confetti-fall 3s ease-in forwards; }
        @keyframes lr-confetti-fall { to { transform: translateY(110vh) rotate(720deg); } }
        @keyframes lr-confetti-hide { 0%, 95% { opacity: 1; } 100% { opacity: 0; visibility: hidden; } }
        @media (prefers-reduced-motion: reduce) { .lr-confetti { display: none; } }
      `}</style>
      {Array.from({ length: 36 }, (_, i) => (
        <i
          key={i}
          style={{
            left: `${(i * 37) % 100}%`,
            background: COLORS[i % COLORS.length],
            animationDelay: `${(i % 9) * 0.12}s`,
          }}
        />
      ))}
    </div>
  );
}
