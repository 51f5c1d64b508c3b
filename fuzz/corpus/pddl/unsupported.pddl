(define (domain x) (:requirements :conditional-effects))
;;problem
(define (problem p) (:domain x) (:goal (and)))
