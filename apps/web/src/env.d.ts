/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Optional embed URL of the product demo video; without it the landing page shows a static walkthrough. */
  readonly VITE_DEMO_VIDEO_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
