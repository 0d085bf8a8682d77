export function OnboardingSteps({ step, total = 4 }: { step: number; total?: number }) {
  return (
    <div className="mt-4">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{`Step ${step} of ${total}`}</p>
      <div className="mt-2 h-2 rounded-full bg-slate-200 dark:bg-slate-800" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={step} aria-label="Setup progress">
        <div className="h-2 rounded-full bg-emerald-700" style={{ width: `${(step / total) * 100}%` }} />
      </div>
    </div>
  );
}
