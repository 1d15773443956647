/**
 * A unit quad as a GLB file (two triangles, UNSIGNED_SHORT indices), written with
 * @gltf-transform/core: the valid file the glTF loader tests start from (and edit byte by byte).
 */

import { Document, NodeIO } from "@gltf-transform/core";

/**
 * The quad (0,0,0), (1,0,0), (1,1,0), (0,1,0) in one primitive of one node. With `translation`
 * the node is moved by it and the scene is marked as the default one; without, the node has no
 * transform and the file names no default scene.
 */
export async function quadGlb(translation?: [number, number, number]): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType("VEC3")
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const ind = doc
    .createAccessor()
    .setType("SCALAR")
    .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", pos).setIndices(ind);
  const node = doc.createNode().setMesh(doc.createMesh().addPrimitive(prim));
  doc.createScene().addChild(node);
  if (translation) {
    node.setTranslation(translation);
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  }
  return new NodeIO().writeBinary(doc);
}
