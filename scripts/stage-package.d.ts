/** Types of stage-package.js (plain JavaScript, so the publish workflow runs it with Node alone). */
export const PUBLISHED_FIELDS: readonly string[];
export function publishedManifest(pkg: Record<string, unknown>): Record<string, unknown>;
/** Stages the published files into `folder` (made empty first); returns `folder`. */
export function stagePackage(folder: string, root?: string): string;
/** Stages into a temporary folder, packs it into `destination`; returns the tarball's path. */
export function packStaged(destination: string, root?: string): string;
