// Issue 39, item 4: the engines agree with every dependency. The machines run Node 20 and
// cannot fetch another, so package.json's floor must be a Node that every installed package
// accepts (npm ci then prints no EBADENGINE warning), and so must the Node running this.
// Optional packages are left out: npm skips one whose engines refuse the running Node.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
// @ts-expect-error semver ships no types; this check is its only user
import semver from "semver";

const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));

test("every installed package accepts package.json's lowest Node and the Node running", () => {
  const floor = read("package.json").engines.node as string;
  const lowest = semver.minVersion(floor).version as string;
  const packages = read("package-lock.json").packages as Record<
    string,
    { version?: string; optional?: boolean; engines?: { node?: string } }
  >;
  const refusing = Object.entries(packages)
    .filter(([, p]) => p.engines?.node && !p.optional)
    .filter(
      ([, p]) => !semver.satisfies(lowest, p.engines!.node) || !semver.satisfies(process.version, p.engines!.node),
    )
    .map(
      ([path, p]) =>
        `${path.replace(/^.*node_modules\//, "") || "package.json"}@${p.version} wants node ${p.engines!.node}`,
    );
  expect(refusing, `package.json says node ${floor}; Node ${process.version} runs this`).toEqual([]);
});
