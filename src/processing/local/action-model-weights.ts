/** Written by eval/train-action-model.ts; the order of weights follows FEATURE_NAMES in action-model.ts. */
export const ACTION_MODEL = {
  weights: [
    -0.485, -0.074, -0.206, 0.387, -0.108, 0.132, 0.357, -0.199, -0.291, 0.151, -0.623, 0.452, 0.338, 0.842, -0.361,
    0.521, -0.461, 0.183, 0.628, 0.047, 0.274, 0.163, 0.065, -0.4,
  ],
  threshold: 0.375,
} as const;
