import QRCode from 'qrcode';
import { useMemo } from 'react';

/**
 * The otpauth url as a QR code drawn as SVG from the module matrix: no data: URL and no inline style,
 * so it renders under the page's CSP (default-src 'self').
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, d } = useMemo(() => {
    const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    let path = '';
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) if (qr.modules.get(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
    }
    return { size: n + 8, d: path };
  }, [text]);
  return (
    <svg className="qr" viewBox={`0 0 ${size} ${size}`} width="200" height="200" role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
