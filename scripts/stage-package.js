#!/usr/bin/env node
/**
 * What is published, staged in a folder of its own: the built `dist/`, README.md, LICENSE and a package.json
 * that holds only the fields a published community package needs. n8n installs a package by unpacking it and
 * running `npm install` inside it, so every field of its package.json is read there as a project's own:
 * the repository's development fields (scripts, devDependencies, the sandbox workspace, npm's allowScripts for
 * the lint tool's dependencies) stay out of the tarball.
 *
 *   node scripts/stage-package.js <folder>                     stage into <folder> (made empty first)
 *   node scripts/stage-package.js --pack <destination folder>  stage into a temporary folder and `npm pack` it
 *                                                              there; prints the tarball's path
 *
 * `npm run pack` packs into the repository's root; the publish workflow publishes a staged folder; the real-n8n
 * tests install the tarball `--pack` makes, as users get it. `npm run build` comes first.
 */
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');

/** The package.json fields that are published, in this order; every other field is the repository's own. */
const PUBLISHED_FIELDS = [
	'name',
	'version',
	'description',
	'keywords',
	'license',
	'author',
	'homepage',
	'repository',
	'engines',
	'files',
	'n8n',
	'peerDependencies',
];

/** Files published beside `files` (npm adds README and LICENSE to every tarball). */
const ALWAYS = ['README.md', 'LICENSE'];

function publishedManifest(pkg) {
	const manifest = {};
	for (const field of PUBLISHED_FIELDS) if (pkg[field] !== undefined) manifest[field] = pkg[field];
	return manifest;
}

function stagePackage(folder, root = ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = listed.filter((file) => !fs.existsSync(path.join(root, file)));
	if (missing.length > 0) throw new Error(`${missing.join(', ')} not built: run npm run build first`);
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });
	for (const entry of [...pkg.files, ...ALWAYS]) fs.cpSync(path.join(root, entry), path.join(folder, entry), { recursive: true });
	fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify(publishedManifest(pkg), null, 2)}\n`);
	return folder;
}

/** Stages into a temporary folder, packs it into `destination` and returns the tarball's path. */
function packStaged(destination, root = ROOT) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'exotel-stage-'));
	try {
		stagePackage(folder, root);
		const out = execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(destination)], { cwd: folder, encoding: 'utf8' });
		return path.join(path.resolve(destination), JSON.parse(out)[0].filename);
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

module.exports = { PUBLISHED_FIELDS, publishedManifest, stagePackage, packStaged };

if (require.main === module) {
	const args = process.argv.slice(2);
	if (args[0] === '--pack' && args[1]) console.log(packStaged(args[1]));
	else if (args.length === 1 && !args[0].startsWith('-')) console.log(stagePackage(path.resolve(args[0])));
	else {
		console.error('usage: node scripts/stage-package.js <folder> | --pack <destination folder>');
		process.exit(2);
	}
}
