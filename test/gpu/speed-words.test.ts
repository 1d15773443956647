/**
 * The wording of `collide bench --gpu`'s comparison (bench/speed-words.ts): a slower GPU reads
 * "N× slower", never a ratio below 1 called "faster"; values hand-computed.
 */
import { describe, expect, it } from "vitest";
import { speedWords } from "../../bench/speed-words.js";

describe("speedWords", () => {
  it("says slower with the inverse ratio when the time is longer", () => {
    // 490 ms on the GPU against 69 ms on the CPU: 7.10… times as long.
    expect(speedWords(490, 69)).toBe("7.1× slower");
    expect(speedWords(11600, 195)).toBe("59× slower");
  });
  it("says faster when the time is shorter", () => {
    expect(speedWords(10, 23)).toBe("2.3× faster");
    expect(speedWords(1, 150)).toBe("150× faster");
  });
  it("says as fast within the printed figures, and n/a for bad input", () => {
    expect(speedWords(100, 100)).toBe("as fast");
    expect(speedWords(100, 104)).toBe("as fast");
    expect(speedWords(0, 1)).toBe("n/a");
    expect(speedWords(1, Number.NaN)).toBe("n/a");
  });
});
