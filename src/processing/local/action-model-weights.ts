/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.625, -0.041, -0.239, 0.118, 0.162, -0.042, 0.374, -0.281, -0.052, 0.352, -0.358, 0.546, 0.227, 0.456, -0.249,
    0.423, -0.141, 0.295, 0.354, -0.04, 0.011, 0.143, 0.075, -0.372, 0.36, 0.183,
  ],
  threshold: 0.35,
} as const;
