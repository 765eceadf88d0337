/**
 * A tiny but real ONNX speaker-embedding model, written as protobuf bytes, so the sherpa-onnx
 * adapter runs against the real native addon without a downloaded model: it averages the 80
 * fbank features over time and projects them to `outputDim` values with a fixed random matrix.
 * The metadata follows what sherpa-onnx reads from WeSpeaker models (framework, output_dim, …).
 */

type Field = Buffer;

function varint(value: number | bigint): Buffer {
  let v = BigInt(value);
  const bytes: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v > 0n);
  return Buffer.from(bytes);
}

const int = (field: number, value: number): Field => Buffer.concat([varint(field << 3), varint(value)]);
const bytes = (field: number, value: Buffer | string): Field => {
  const body = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
};
const message = (field: number, ...fields: Field[]): Field => bytes(field, Buffer.concat(fields));

/** TypeProto.Tensor of float with the given dims (numbers, or names for dynamic axes). */
function floatTensorType(dims: Array<number | string>): Field {
  const shape = dims.map((d) => message(1, typeof d === 'number' ? int(1, d) : bytes(2, d)));
  return message(2, message(1, int(1, 1), message(2, ...shape)));
}

const valueInfo = (field: number, name: string, dims: Array<number | string>) =>
  message(field, bytes(1, name), floatTensorType(dims));

function weights(rows: number, cols: number, seed: number): Buffer {
  const out = Buffer.alloc(rows * cols * 4);
  let state = seed;
  for (let i = 0; i < rows * cols; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out.writeFloatLE(state / 2 ** 31 - 0.5, i * 4);
  }
  return out;
}

/** The model's bytes; `declaredDim` is the output_dim metadata (normally equal to outputDim). */
export function speakerModel(outputDim: number, declaredDim = outputDim): Buffer {
  const reduce = message(
    1,
    bytes(1, 'feats'),
    bytes(2, 'mean'),
    bytes(3, 'pool'),
    bytes(4, 'ReduceMean'),
    message(5, bytes(1, 'axes'), int(20, 7), int(8, 1)),
    message(5, bytes(1, 'keepdims'), int(20, 2), int(3, 0)),
  );
  const project = message(
    1,
    bytes(1, 'mean'),
    bytes(1, 'W'),
    bytes(2, 'embs'),
    bytes(3, 'project'),
    bytes(4, 'MatMul'),
  );
  const initializer = message(
    5,
    int(1, 80),
    int(1, outputDim),
    int(2, 1),
    bytes(8, 'W'),
    bytes(9, weights(80, outputDim, 7)),
  );
  const graph = message(
    7,
    reduce,
    project,
    bytes(2, 'tiny-speaker'),
    initializer,
    valueInfo(11, 'feats', ['N', 'T', 80]),
    valueInfo(12, 'embs', ['N', outputDim]),
  );
  const meta = (key: string, value: string) => message(14, bytes(1, key), bytes(2, value));
  return Buffer.concat([
    int(1, 7),
    bytes(2, 'keepsake-tests'),
    graph,
    message(8, bytes(1, ''), int(2, 13)),
    meta('framework', 'wespeaker'),
    meta('output_dim', String(declaredDim)),
    meta('sample_rate', '16000'),
    meta('normalize_samples', '0'),
    meta('language', 'English'),
  ]);
}
