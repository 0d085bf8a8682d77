export const HOW_IT_WORKS_STEPS = [
  { title: "Sign Up", body: "Create your free account with your e-mail or Google and add your mobile number." },
  {
    title: "Join Communities",
    body: "Join your apartment, your workplace or an interest group. Moderators approve each request.",
  },
  { title: "Create or Join Rides", body: "Offer the seats in your car, or request a seat on a ride going your way." },
  {
    title: "Share & Save",
    body: "Split the fuel cost fairly in rupees, cut traffic and CO2, and rate your co-passengers.",
  },
];

export function HowItWorksSteps() {
  return (
    <ol className="mt-10 grid gap-6 md:grid-cols-4">
      {HOW_IT_WORKS_STEPS.map((step, i) => (
        <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
          <span className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-emerald-700 font-bold text-white">
            {i + 1}
          </span>
          <h3 className="mt-3 text-lg font-semibold">{step.title}</h3>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{step.body}</p>
        </li>
      ))}
    </ol>
  );
}
