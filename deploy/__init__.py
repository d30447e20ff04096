"""How the production stack is started on one machine (``make serve``, the Procfile,
compose.yaml): the load balancer's configuration (haproxy.py)."""
