/** The compiler's version, written into every generated file's header. */
export const VERSION = "0.1.0";
