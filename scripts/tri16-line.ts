// temp (tri16): answer a query line (JSON from argv or file line) + oracle truth in local frame
import { readFileSync } from "node:fs";
import { answerQuery } from "../src/io/query.js";
import { overlapPieces, pairTruth } from "../test/fuzz/oracle-pairs.js";
import { oshape } from "../test/fuzz/oracle-shapes.js";
const arg = process.argv[2];
const line = JSON.parse(arg.startsWith("{") ? arg : readFileSync(arg, "utf8").split("\n")[Number(process.argv[3] ?? 0)]);
const q = line.line ?? line;
const r = answerQuery(q) as any;
console.log("answer", JSON.stringify(r));
const A = oshape(q.a), B = oshape(q.b);
const T = pairTruth(A, B, [], true);
console.log("truth", { lower: T.lower, upper: T.upper, depth: T.depth, depthKnown: T.depthKnown, dir: T.depthDir });
if (r && r.normal) console.log("overlap along answer normal", overlapPieces(A.pieces[0], B.pieces[0], r.normal), "answer depth", -r.distance);
