/**
 * The engine's folders at folder level (`pnpm run check:dependencies` runs this after the module rules in
 * .dependency-cruiser.mjs): they import each other one way only, so there is an order from the bottom
 * (model/, limits/) to the top (execute/, node-types/). Tests and the test kit (testing/) import across
 * every layer by design and are left out; the module rules still check them.
 */
const ENGINE = "^packages/engine/src/";

export default {
  forbidden: [
    {
      name: "engine-folders-one-way",
      comment:
        "Two engine folders import each other, directly or round a circle (an upward arrow): what both sides need moves down into a folder of its own, or the registry is passed in instead of imported.",
      severity: "error",
      scope: "folder",
      from: { path: ENGINE },
      to: { path: ENGINE, circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: ["node_modules", "/dist/"] },
    exclude: { path: ["\\.test\\.ts$", `${ENGINE}testing/`] },
  },
};
