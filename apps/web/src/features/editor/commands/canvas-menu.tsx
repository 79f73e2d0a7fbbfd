"use client";

import { useEffect, useRef } from "react";

export interface MenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
  /** A line above it, to group items. */
  separated?: boolean;
  testId?: string;
}

interface CanvasMenuProps {
  /** Where the pointer was, in page coordinates. */
  at: { x: number; y: number };
  label: string;
  items: readonly MenuItem[];
  onClose: () => void;
}

/** The right-click menu on a node or on the canvas: a list of commands; Escape or a click elsewhere closes it. */
export function CanvasMenu({ at, label, items, onClose }: CanvasMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
    const away = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) onClose();
    };
    const escape = (event: KeyboardEvent) => event.key === "Escape" && onClose();
    document.addEventListener("mousedown", away);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("mousedown", away);
      document.removeEventListener("keydown", escape);
    };
  }, [onClose]);
  return (
    <div ref={menu} className="canvas-menu" role="menu" aria-label={label} style={{ left: at.x, top: at.y }} data-testid="canvas-menu">
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          className={item.separated ? "canvas-menu__item canvas-menu__item--separated" : "canvas-menu__item"}
          disabled={item.disabled}
          data-testid={item.testId}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
