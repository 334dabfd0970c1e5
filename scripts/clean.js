// Removes the previous build so deleted sources never linger in dist/.
const fs = require('fs');
fs.rmSync(require('path').join(__dirname, '..', 'dist'), { recursive: true, force: true });
