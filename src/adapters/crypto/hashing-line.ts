/** How much each new timing moves the estimate: enough to follow a change of load within a few dozen jobs. */
const WEIGHT_OF_NEWEST = 0.2;

const movingAverage = (average: number, newest: number): number =>
  average * (1 - WEIGHT_OF_NEWEST) + newest * WEIGHT_OF_NEWEST;

/**
 * The line of password hashes and checks waiting for a core, measured in seconds of work rather than in jobs: the
 * same bound then holds at any BCRYPT_COST and on any machine, and follows the machine when other work slows it.
 * What a job takes is learnt from the jobs themselves (a moving average of their running time).
 */
export class HashingLine {
  private secondsPerJob: number;
  private measured = false;
  /** What a password check took to answer, its wait included; null until one has been timed. */
  private secondsPerAnswer: number | null = null;

  constructor(
    private readonly atOnce: number,
    firstEstimateSeconds: number,
  ) {
    this.secondsPerJob = firstEstimateSeconds;
  }

  /** One job's running time (not its wait): the first replaces the guess, later ones move the average. */
  timed(seconds: number): void {
    this.secondsPerJob = this.measured ? movingAverage(this.secondsPerJob, seconds) : seconds;
    this.measured = true;
  }

  /** One password check's time from asking to answer, its wait in the line included. */
  answered(seconds: number): void {
    this.secondsPerAnswer =
      this.secondsPerAnswer === null ? seconds : movingAverage(this.secondsPerAnswer, seconds);
  }

  /**
   * What a password check takes to answer here now (a moving average; before any was timed, what a job takes):
   * how long a compare that is not run waits before its answer, so that timing does not tell it apart.
   */
  get answerSeconds(): number {
    return this.secondsPerAnswer ?? this.secondsPerJob;
  }

  /**
   * Null when one more job may join `waiting` others; otherwise how long until the line has drained, for
   * Retry-After. One job per core may always wait, so a cost slower than the bound still lets work through.
   */
  refusal(
    waiting: number,
    maxWaitSeconds: number | undefined,
  ): { readonly retryAfterSeconds: number } | null {
    if (maxWaitSeconds === undefined || !Number.isFinite(this.atOnce) || waiting < this.atOnce) return null;
    if (this.secondsOfWork(waiting + 1) <= maxWaitSeconds) return null;
    return this.drained(waiting);
  }

  /** How long until `waiting` jobs have drained, in whole seconds for Retry-After (at least one). */
  drained(waiting: number): { readonly retryAfterSeconds: number } {
    return { retryAfterSeconds: Math.max(1, Math.ceil(this.secondsOfWork(waiting))) };
  }

  /** How long the cores need for `jobs` jobs. */
  private secondsOfWork(jobs: number): number {
    return (jobs * this.secondsPerJob) / this.atOnce;
  }
}
