import { it } from "vitest";
import { computeConvexHull, hullTolerance, validateConvexHull } from "../src/geometry/hull.js";
function rng(seed: number) { let s = seed >>> 0; return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
it("timing", () => {
  for (const kind of ["cube", "sphere", "gauss"]) {
    const r = rng(3); const n = 10000; const P = new Float64Array(3*n);
    for (let i = 0; i < n; i++) { let x=2*r()-1,y=2*r()-1,z=2*r()-1; if (kind==="sphere"){const l=Math.hypot(x,y,z); x/=l;y/=l;z/=l;} P.set([x,y,z],3*i); }
    for (let rep=0; rep<3; rep++){ const t0 = performance.now(); const h = computeConvexHull(P); console.log(kind, (performance.now()-t0).toFixed(1), "ms", h.vertices.length/3, h.faceOffsets.length-1); }
  }
  // box grid 1e6 rotated
  const pts: number[] = [];
  const g = 20; 
  for (let a=0;a<3;a++) for (const s of [-1,1]) for (let i=0;i<=g;i++) for (let j=0;j<=g;j++){ const p=[0,0,0]; p[a]=s; p[(a+1)%3]=2*i/g-1; p[(a+2)%3]=2*j/g-1; pts.push(...p); }
  const c=Math.cos(0.3), s=Math.sin(0.3);
  const Q: number[] = [];
  for (let i=0;i<pts.length;i+=3){ const x=pts[i],y=pts[i+1],z=pts[i+2]; const x1=c*x-s*y, y1=s*x+c*y; const y2=c*y1-s*z, z2=s*y1+c*z; Q.push(x1*1e-3+1e6, y2*1e-3+1e6, z2*1e-3-3e5); }
  const t0 = performance.now(); const h = computeConvexHull(Q); console.log("grid", (performance.now()-t0).toFixed(1), "ms", h.vertices.length/3, Array.from(h.faceOffsets), validateConvexHull(Q,h, hullTolerance(Q)));
});
