import type { Clock } from '../ports/clock.js';
import type { InstanceKeyStore } from '../ports/instance-key-store.js';
import type { KeyPair, KeyPairGenerator } from '../ports/key-pair-generator.js';

/** The key pair of the service actor, made on first use and then read once per process. */
export class InstanceActorKeys {
  private loaded: Promise<KeyPair> | null = null;

  constructor(
    private readonly store: InstanceKeyStore,
    private readonly generator: KeyPairGenerator,
    private readonly clock: Clock,
  ) {}

  keyPair(): Promise<KeyPair> {
    this.loaded ??= this.load().catch((error: unknown) => {
      // A store that could not answer is asked again next time.
      this.loaded = null;
      throw error;
    });
    return this.loaded;
  }

  private async load(): Promise<KeyPair> {
    return (await this.store.get()) ?? this.store.create(await this.generator.generate(), this.clock.now());
  }
}
