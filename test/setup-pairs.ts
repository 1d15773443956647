/**
 * Test files import the library's modules directly (src/query/…, src/world/…), not through an
 * entry; the entries (`collide`, `collide/node`, the world, the workers) install the pair table's
 * default registrations, so every test file gets them here too. The empty table of
 * `collide/core` is tested through its bundle (test/browser/bundle.test.ts).
 */
import "../src/narrowphase/dispatch.js";
