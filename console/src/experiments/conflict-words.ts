/**
 * A new experiment's 409 in a merchant's words. The API names these refusals only by the generic `conflict` code,
 * so the clash of arms is told by its sentence; any other refusal is left as the server said it (null).
 */
export function experimentConflictText(error: { status?: number; message: string }): string | null {
  if (error.status !== 409) return null;
  const clash = /^Arm "(.*)" would send the same source as an arm of running experiment (\d+);/.exec(error.message);
  if (!clash) return null;
  return (
    `Another running experiment (#${clash[2]}) already sends visitors to this ruleset through an arm named ` +
    `“${clash[1]}”, so their figures could not be told apart. Name this arm differently, or stop that experiment.`
  );
}
