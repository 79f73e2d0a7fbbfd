import { CACHE_CONTRACT_DIMENSION, CACHE_CONTRACT_MODEL, describeSemanticCacheContract } from "../testing/semantic-cache.contract.js";
import { ExactSemanticCache } from "./exact-semantic-cache.js";

describeSemanticCacheContract("exact in-memory reference", async (clock) => ({
  cache: new ExactSemanticCache(CACHE_CONTRACT_MODEL, CACHE_CONTRACT_DIMENSION, { now: clock }),
}));
