"""The pages under load during a round, beside the live tables (``bench_pages``):
a locust user that asks them (``locustfile``), the pages it asks (``pages``), the round
it asks them about (``round``) and the headless locust run beside the tables (``run``)."""
