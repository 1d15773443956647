/**
 * Property tests run with one fixed seed by default, so that CI is reproducible; set FC_SEED to
 * explore other seeds (every failure prints its seed and path, and a fixed failure becomes a
 * test with the right value). `endOnFailure` keeps shrinking from running for minutes.
 */
import fc from "fast-check";

const seed = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : 20261201;
fc.configureGlobal({ seed, endOnFailure: true });
