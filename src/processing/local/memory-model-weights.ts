/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    -0.305, 0.381, -0.246, 0.642, 0.044, -0.018, 0.045, 0.062, 0.109, 0.297, -0.035, -0.124, -0.158, -0.258, -0.222,
    -0.15, -0.369, 0.07, 0.949, -0.423, 0.25, -0.248, -0.066, -0.419, -0.148, 0.734, 0.312, 0.309, 0.001, -0.229, 0.139,
    0.382, -0.167, -0.271, 0.028, 0.004, 0.033, -0.893, 0.794,
  ],
  threshold: 0.363,
} as const;
