// Paths are relative to this file's folder: gulp runs its tasks there.
const { parallel, src, dest, task } = require('gulp');

// n8n resolves `file:` icons relative to the compiled node, so icons ship inside dist/.
function copyIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

// n8n reads a node's codex (categories, aliases, documentation links) from `<Node>.node.json` beside
// the compiled `<Node>.node.js`, so each one goes to the same relative path under dist/nodes/.
function copyCodex() {
	return src('nodes/**/*.node.json', { encoding: false }).pipe(dest('dist/nodes'));
}

// `npm run build` calls this task: everything besides the compiled code that n8n loads from dist/.
task('build:icons', parallel(copyIcons, copyCodex));
