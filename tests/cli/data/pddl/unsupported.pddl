(define (domain x)
  (:requirements :strips :conditional-effects))
