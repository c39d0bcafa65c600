// `@fflkit/sandbox-core/persistence`: what a persister of a core needs besides the core itself
// (the sandbox's data file and journal): the snapshot's format, its fast reading and writing,
// and the replay of change sets. Apart from the main entry, which a core's users import.

export { applyChanges, ChangeReplay, createSnapshotStringifier, SNAPSHOT_FORMAT } from './state/snapshot';
export { createSnapshotReviver } from './state/snapshot-reviver';
export type { SnapshotReviver } from './state/snapshot-reviver';
export { CORE_COLLECTIONS } from './state/records';
