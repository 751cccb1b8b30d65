import { type RefObject, useEffect } from 'react';

/**
 * Keeps the focused control clear of a sticky bar at the bottom of the page (WCAG 2.2 SC 2.4.11,
 * Focus Not Obscured): while the bar is sticky, the page's scroll-padding-bottom is its height,
 * so the browser scrolls a control tabbed to above the bar; and a control the browser still
 * leaves under it (one already on screen) is scrolled up by the overlap.
 */
export function useUnobscuredFocus(bar: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const room = 16;
    const sticky = () => getComputedStyle(element).position === 'sticky';
    const pad = () => {
      root.style.scrollPaddingBottom = sticky() ? `${element.offsetHeight + room}px` : '';
    };
    const observer = new ResizeObserver(pad);
    observer.observe(element);
    window.addEventListener('resize', pad);
    const clear = (target: HTMLElement) => {
      const covered = element.getBoundingClientRect();
      const box = target.getBoundingClientRect();
      const across = box.left < covered.right && box.right > covered.left;
      if (across && box.bottom > covered.top && box.top < covered.bottom) {
        window.scrollBy({ top: box.bottom - covered.top + room, behavior: 'instant' });
      }
    };
    const focusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || element.contains(target) || !sticky()) return;
      clear(target);
      // Again once the browser has scrolled the control into view its own way.
      requestAnimationFrame(() => {
        if (document.activeElement === target) clear(target);
      });
    };
    document.addEventListener('focusin', focusIn);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', pad);
      document.removeEventListener('focusin', focusIn);
      root.style.scrollPaddingBottom = '';
    };
  }, [bar]);
}
