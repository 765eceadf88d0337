// Small progressive enhancements; every page works without them.

// Forms with data-confirm ask before they submit (deletes, revokes).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

// Buttons with data-copy="<input id>" copy that input's value (the API key shown once).
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const input = document.getElementById(button.dataset.copy ?? '');
  if (!(input instanceof HTMLInputElement)) return;
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Press Ctrl+C to copy';
  }
});
