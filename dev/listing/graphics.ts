/** The listing's icon and banner, drawn as SVG so each size is sharp: a sheet with a bill's lines on the Sheets green. */

const GREEN = '#188038';

/** The icon's drawing on a 128-unit square, scaled to `size` pixels. */
export function iconSvg(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 128 128">
  <rect width="128" height="128" rx="24" fill="${GREEN}"/>
  <path d="M36 20h40l18 18v70H36z" fill="#fff"/>
  <path d="M76 20v18h18z" fill="#cde7d5"/>
  <rect x="46" y="52" width="38" height="7" rx="3" fill="${GREEN}"/>
  <rect x="46" y="66" width="38" height="7" rx="3" fill="${GREEN}"/>
  <rect x="46" y="80" width="22" height="7" rx="3" fill="${GREEN}"/>
  <rect x="72" y="80" width="12" height="7" rx="3" fill="#f6b400"/>
</svg>`;
}

/** A page that is exactly the graphic, for a screenshot at its size. */
export function page(width: number, height: number, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;width:${width}px;height:${height}px;overflow:hidden;font-family:Arial,Helvetica,sans-serif}
svg{display:block}
.banner{box-sizing:border-box;width:${width}px;height:${height}px;background:${GREEN};color:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:8px}
.banner b{font-size:22px}.banner span{font-size:12px;opacity:.9}
</style></head><body>${body}</body></html>`;
}

export const ICON_SIZES = [32, 128] as const;
export const BANNER = { width: 220, height: 140 } as const;
export const SCREENSHOT = { width: 1280, height: 800 } as const;

export function bannerHtml(): string {
  return page(BANNER.width, BANNER.height, `<div class="banner">${iconSvg(56)}<b>Faturamento</b><span>para Planilhas Google</span></div>`);
}
