/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.69, -0.013, -0.192, 0.146, 0.058, 0.02, 0.362, -0.284, -0.099, 0.306, -0.372, 0.42, 0.281, 0.503, -0.241, 0.417,
    -0.035, 0.313, 0.332, -0.039, 0.028, 0.108, 0.009, -0.335, 0.36,
  ],
  threshold: 0.35,
} as const;
