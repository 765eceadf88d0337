/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.635, 0.033, -0.212, 0.142, 0.036, 0.033, 0.345, -0.261, -0.118, 0.287, -0.387, 0.443, 0.252, 0.501, -0.241,
    0.404, -0.078, 0.275, 0.374, -0.032, -0.005, 0.099, -0.002, -0.358, 0.37, 0.189,
  ],
  threshold: 0.35,
} as const;
