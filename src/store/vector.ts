/** A libSQL native vector column: `F32_BLOB(dim)`, read and written as Float32Array. */
import { customType } from "drizzle-orm/sqlite-core";

/** Dimension of every stored vector: Chinese-CLIP ViT-B/16 and the fallback share it. */
export const VECTOR_DIM = 512;

export const f32Blob = (name: string, dim: number = VECTOR_DIM) =>
  customType<{ data: Float32Array; driverData: ArrayBuffer | Uint8Array }>({
    dataType: () => `F32_BLOB(${dim})`,
    toDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
    fromDriver: (value) => {
      const bytes = value instanceof Uint8Array ? value : new Uint8Array(value);
      return new Float32Array(bytes.slice().buffer);
    },
  })(name);
