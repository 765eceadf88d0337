/** Written by eval/train-title-model.ts; the weights follow the model's feature names in order. */
export const TITLE_MODEL = {
  weights: [
    -2.496, 0.277, 0.496, 0.28, 0.21, -0.005, -0.198, 0.408, 0.271, 0.057, -0.184, 0.151, 0.243, -0.32, 0.212, 0.195,
    0.082, -0.151, 0.198, -0.061, 0.146, 0.168, -0.003, -0.011, 0.082, -0.117, -0.246, -0.031, 0.002, 0.094,
  ],
  threshold: 0.125,
} as const;
