/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.386, 0.289, 0.525, 0.33, 0.227, 0.01, -0.214, 0.435, 0.288, 0.109, -0.201, 0.15, 0.254, -0.325, 0.217, 0.173,
    0.08, -0.215, 0.205, -0.061, 0.151, 0.166, 0.023, -0.002, 0.066, -0.128, -0.237, -0.042, 0.02, 0.041,
  ],
  threshold: 0.15,
} as const;
