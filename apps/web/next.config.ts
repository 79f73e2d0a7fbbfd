import path from "node:path";
import type { NextConfig } from "next";

// The workspace root, so Turbopack follows pnpm's symlinks into packages/engine.
const workspaceRoot = path.resolve(process.cwd(), "../..");

const config: NextConfig = {
  reactStrictMode: true,
  // @weft/engine is consumed from its compiled dist (ESM); transpiling keeps its syntax in line with our targets.
  transpilePackages: ["@weft/engine"],
  turbopack: { root: workspaceRoot },
  outputFileTracingRoot: workspaceRoot,
  devIndicators: false,
};

export default config;
