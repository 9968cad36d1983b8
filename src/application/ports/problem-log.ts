/** Where the application reports what an operator must see: bugs and work given up. */
export interface ProblemLog {
  error(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
}
