/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    -0.144, 0.365, -0.28, 0.743, 0.046, 0.052, 0.056, 0.063, 0.218, 0.3, -0.246, -0.163, -0.146, -0.35, -0.223, -0.239,
    -0.196, 0.226, 1.026, -0.433, 0.271, -0.29, -0.223, -0.479, -0.139, 0.615, 0.337, 0.202, 0.051, -0.285, -0.423,
    0.363, -0.152, -0.358, -0.002, 0.015, 0.034, -0.845,
  ],
  threshold: 0.363,
} as const;
