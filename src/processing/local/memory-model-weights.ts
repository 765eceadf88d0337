/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    -0.061, 0.371, -0.21, 0.721, 0.054, 0.058, 0.066, 0.077, 0.345, 0.277, -0.285, -0.243, -0.13, -0.441, -0.201,
    -0.172, -0.286, 0.339, 0.966, -0.486, 0.264, -0.221, -0.269, -0.513, -0.126, 0.616, 0.312, 0.26, -0.107, -0.214,
    -0.363, 0.141, -0.179, -0.341, 0.015, 0.034, -0.029, -1.033,
  ],
  threshold: 0.413,
} as const;
