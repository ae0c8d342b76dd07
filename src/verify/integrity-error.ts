/** Raised when build output or a bundle fails verification; `itemId` names the item (or the file when it has none). */
export class IntegrityError extends Error {
  override name = "IntegrityError";
  constructor(
    readonly itemId: string,
    message: string,
  ) {
    super(message);
  }
}
