/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.498, 0.277, 0.477, 0.256, 0.217, -0.004, -0.211, 0.397, 0.261, 0.055, -0.195, 0.163, 0.251, -0.316, 0.245, 0.19,
    0.09, -0.154, 0.198, -0.054, 0.161, 0.152, 0.003, -0.014, 0.069, -0.12, -0.26, -0.044, 0.005, 0.076,
  ],
  threshold: 0.15,
} as const;
