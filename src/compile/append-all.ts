/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument on
 * the stack, so a list the checkout can make long (170,000 diagnostics from five in-limit directives)
 * overflows it and a build of located errors would end in one unlocated internal error.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
