/** The npm package `bunny`: the Stanford bunny as vertex positions and triangles. */
declare module "bunny" {
  export const positions: [number, number, number][];
  export const cells: [number, number, number][];
}
