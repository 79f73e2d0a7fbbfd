/**
 * The seed types a model node or the output may read from (SPEC §2's table: every seed type but
 * output). In a registry that also holds later types, `acceptsAnyExcept` / `feedsAnyExcept` add those
 * without naming them (SPEC-V2 §1).
 */
export const SEED_MODEL_SOURCES = ["input", "generation", "ensemble", "validation"] as const;
