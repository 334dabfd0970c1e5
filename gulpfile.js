const path = require('path');
const { src, dest, task } = require('gulp');

// n8n resolves `file:` icons relative to the compiled node, so icons ship inside dist/.
task('build:icons', () =>
	src(path.resolve('icons', '*.svg'), { encoding: false }).pipe(dest(path.resolve('dist', 'icons'))),
);
