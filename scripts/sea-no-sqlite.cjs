// Stands in for better-sqlite3 inside the single binary (scripts/build-sea.js): a native addon cannot be
// embedded in the SEA blob, so --format sqlite fails with a usage error (exit 2) instead of a crash.
module.exports = function Database() {
  throw Object.assign(
    new Error(
      '--format sqlite needs the native better-sqlite3 module, which the single binary cannot embed: use the npm install of mdget for sqlite output',
    ),
    { code: 'MDGET_USAGE' },
  );
};
