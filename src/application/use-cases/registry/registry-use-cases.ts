// The registry area: assets — registered, updated, deleted (each write published as a signed activity) and read —
// and the activity log as lists and single activities.
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { DeleteAsset } from './delete-asset.js';
import { GetActivity } from './get-activity.js';
import { GetAsset } from './get-asset.js';
import { GetEditableAsset } from './get-editable-asset.js';
import { ListActivities } from './list-activities.js';
import { ListRegistry } from './list-registry.js';
import { RegisterAsset } from './register-asset.js';
import { UpdateAsset } from './update-asset.js';

export const REGISTRY_USE_CASES = {
  registerAsset: (p) => new RegisterAsset(p.assetWriting),
  updateAsset: (p) => new UpdateAsset(p.assetWriting),
  deleteAsset: (p) => new DeleteAsset(p.assetWriting),
  getAsset: (p) => new GetAsset(p.store.assets),
  getEditableAsset: (p) => new GetEditableAsset(p.store.assets),
  listRegistry: (p) => new ListRegistry(p.store.assets),
  getActivity: (p) => new GetActivity(p.store.activities),
  listActivities: (p) => new ListActivities(p.store.activities),
} satisfies AreaRegistry;

export type RegistryUseCases = UseCasesOf<typeof REGISTRY_USE_CASES>;
