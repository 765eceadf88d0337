/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.38, 0.283, 0.522, 0.314, 0.247, 0.008, -0.209, 0.431, 0.28, 0.138, -0.2, 0.145, 0.259, -0.331, 0.219, 0.162,
    0.093, -0.228, 0.219, -0.057, 0.154, 0.169, 0.023, -0.002, 0.056, -0.13, -0.225, -0.041, 0.017, 0.022,
  ],
  threshold: 0.15,
} as const;
