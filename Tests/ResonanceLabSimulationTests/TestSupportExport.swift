// The shared test helpers (temporary folders, fixtures, the datasets root) for every
// file of this target.
@_exported import ResonanceTestSupport
