import { describeVectorStoreContract } from "../testing/vector-store.contract.js";
import { ExactVectorStore } from "./exact-vector-store.js";

describeVectorStoreContract("exact in-memory reference", async () => ({ store: new ExactVectorStore() }));
