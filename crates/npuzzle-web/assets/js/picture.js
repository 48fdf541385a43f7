// Picture mode: an image cropped to the board's proportions, so each tile shows its piece.

/** Loads an image from a URL and crops its centre to `cols`:`rows`; resolves to a data URL. */
export function cropToBoard(url, rows, cols) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      const target = cols / rows;
      const w = img.naturalWidth || 600;
      const h = img.naturalHeight || 600;
      let [sw, sh] = w / h > target ? [h * target, h] : [w, w / target];
      const [sx, sy] = [(w - sw) / 2, (h - sh) / 2];
      const outW = Math.min(900, Math.max(300, sw));
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(outW);
      canvas.height = Math.round(outW / target);
      canvas.getContext('2d').drawImage(img, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
      resolve(canvas.toDataURL('image/jpeg', 0.9));
    };
    img.onerror = () => reject(new Error('that file is not an image the browser can read'));
    img.src = url;
  });
}

export const SAMPLE = '/assets/sample.svg';
