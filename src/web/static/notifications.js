// Live notifications: Server-Sent Events from /v1/notifications/stream (the session cookie authenticates).
const list = document.getElementById('notifications');
const status = document.getElementById('live-status');
const empty = document.getElementById('empty');

function item(n) {
  const li = document.createElement('li');
  li.className = 'card item';
  const title = document.createElement('p');
  title.className = 'title';
  title.textContent = n.title;
  const message = document.createElement('p');
  message.textContent = n.message;
  const meta = document.createElement('p');
  meta.className = 'meta';
  const time = document.createElement('time');
  time.dateTime = n.created_at;
  time.textContent = new Date(n.created_at).toLocaleString();
  meta.append(time, ` · ${n.source}`);
  li.append(title, message, meta);
  return li;
}

const source = new EventSource('/v1/notifications/stream');
source.addEventListener('open', () => {
  status.textContent = 'Live: new notifications appear here as they arrive.';
});
source.addEventListener('error', () => {
  status.textContent = 'Live updates interrupted; reconnecting…';
});
source.addEventListener('notification', (event) => {
  const n = JSON.parse(event.data);
  list.prepend(item(n));
  if (empty) empty.hidden = true;
});
