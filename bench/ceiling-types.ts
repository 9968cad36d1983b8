export interface CeilingSpec {
  readonly kind: 'bcrypt' | 'rsa';
  readonly seconds: number;
  readonly bcryptCost: number;
}

/** One core, operations one after another. */
export interface CeilingSample {
  readonly kind: 'bcrypt' | 'rsa';
  readonly count: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** The machine's ceiling: cores × one core's rate. */
export interface Ceiling extends CeilingSample {
  readonly cores: number;
  readonly ceilingPerSecond: number;
}
